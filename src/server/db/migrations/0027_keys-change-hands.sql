CREATE TABLE "account_security_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"via" text,
	"removed" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "rerun_of" uuid;--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD COLUMN "email" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "password_reset_tokens" AS t SET "email" = u."email" FROM "users" AS u WHERE u."id" = t."user_id";--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ALTER COLUMN "email" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "made_while_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD COLUMN "made_while_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "api_tokens" AS t SET "made_while_verified" = true FROM "users" AS u WHERE u."id" = t."user_id" AND u."email_verified_at" <= t."created_at";--> statement-breakpoint
UPDATE "webhook_endpoints" AS t SET "made_while_verified" = true FROM "users" AS u WHERE u."id" = t."user_id" AND u."email_verified_at" <= t."created_at";--> statement-breakpoint
ALTER TABLE "account_security_events" ADD CONSTRAINT "account_security_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "account_security_events_user_idx" ON "account_security_events" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "generations_rerun_of_idx" ON "generations" USING btree ("rerun_of");