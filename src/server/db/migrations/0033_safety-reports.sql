CREATE TABLE "blocked_media_hashes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"hash" text NOT NULL,
	"report_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "safety_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"generation_id" uuid NOT NULL,
	"owner_user_id" uuid,
	"reason" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"reporter_contact" text,
	"reporter_user_id" uuid,
	"reporter_address" text,
	"statement" boolean DEFAULT false NOT NULL,
	"video" jsonb NOT NULL,
	"appeal_of" uuid,
	"status" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	"decision_note" text
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "strikes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "safety_reports" ADD CONSTRAINT "safety_reports_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_reports" ADD CONSTRAINT "safety_reports_reporter_user_id_users_id_fk" FOREIGN KEY ("reporter_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "blocked_media_hashes_created_idx" ON "blocked_media_hashes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "safety_reports_open_idx" ON "safety_reports" USING btree ("due_at") WHERE "safety_reports"."status" = 'open';--> statement-breakpoint
CREATE INDEX "safety_reports_generation_idx" ON "safety_reports" USING btree ("generation_id");--> statement-breakpoint
CREATE INDEX "safety_reports_owner_idx" ON "safety_reports" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "safety_reports_address_idx" ON "safety_reports" USING btree ("reporter_address","created_at");