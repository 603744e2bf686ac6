DROP INDEX "users_credits_idx";--> statement-breakpoint
DROP INDEX "users_credits_used_idx";--> statement-breakpoint
DROP INDEX "users_credits_added_idx";