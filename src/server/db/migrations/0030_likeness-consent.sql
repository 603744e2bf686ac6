ALTER TABLE "uploads" ADD COLUMN "faces" integer;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "consent" jsonb;