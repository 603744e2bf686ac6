CREATE TABLE "signing_identities" (
	"id" text PRIMARY KEY NOT NULL,
	"certificate_chain_pem" text NOT NULL,
	"private_key_pem" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
