ALTER TABLE "generations" ADD COLUMN "end_image" jsonb;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "reference_images" jsonb DEFAULT '[]'::jsonb NOT NULL;