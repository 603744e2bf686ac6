ALTER TABLE "generations" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "group_id" uuid;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "queue_key" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "extension" jsonb;--> statement-breakpoint
CREATE INDEX "generations_fair_queue_idx" ON "generations" USING btree ("queue_key") WHERE "generations"."status" in ('pending', 'processing');