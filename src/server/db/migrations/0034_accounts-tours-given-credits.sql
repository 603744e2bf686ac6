ALTER TABLE "credit_ledger" ADD COLUMN "given_delta_hundredths" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "given_credits_hundredths" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "completed_tours" jsonb DEFAULT '[]'::jsonb NOT NULL;