CREATE TABLE "allowance_ledger" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"delta" integer NOT NULL,
	"pack_id" uuid,
	"day_start" timestamp with time zone,
	"reference" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "daily_generation_usage" (
	"user_id" uuid NOT NULL,
	"day_start" timestamp with time zone NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "daily_generation_usage_user_id_day_start_pk" PRIMARY KEY("user_id","day_start"),
	CONSTRAINT "daily_usage_nonnegative" CHECK ("daily_generation_usage"."used" >= 0)
);
--> statement-breakpoint
CREATE TABLE "extra_generation_packs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"pack" text NOT NULL,
	"generations" integer NOT NULL,
	"used" integer DEFAULT 0 NOT NULL,
	"purchased_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"payment_reference" text,
	CONSTRAINT "extra_generation_packs_payment_reference_unique" UNIQUE("payment_reference"),
	CONSTRAINT "extra_packs_within" CHECK ("extra_generation_packs"."used" >= 0 AND "extra_generation_packs"."used" <= "extra_generation_packs"."generations")
);
--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "paid_with" text DEFAULT 'credits' NOT NULL;--> statement-breakpoint
ALTER TABLE "allowance_ledger" ADD CONSTRAINT "allowance_ledger_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allowance_ledger" ADD CONSTRAINT "allowance_ledger_pack_id_extra_generation_packs_id_fk" FOREIGN KEY ("pack_id") REFERENCES "public"."extra_generation_packs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_generation_usage" ADD CONSTRAINT "daily_generation_usage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extra_generation_packs" ADD CONSTRAINT "extra_generation_packs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "allowance_ledger_user_idx" ON "allowance_ledger" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "extra_packs_user_idx" ON "extra_generation_packs" USING btree ("user_id","expires_at");