CREATE TABLE "storyboards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"shots" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"film" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "storyboard_id" uuid;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "shot_id" uuid;--> statement-breakpoint
ALTER TABLE "storyboards" ADD CONSTRAINT "storyboards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "storyboards_user_updated_idx" ON "storyboards" USING btree ("user_id","updated_at");--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_storyboard_id_storyboards_id_fk" FOREIGN KEY ("storyboard_id") REFERENCES "public"."storyboards"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generations_storyboard_idx" ON "generations" USING btree ("storyboard_id") WHERE "generations"."storyboard_id" is not null;