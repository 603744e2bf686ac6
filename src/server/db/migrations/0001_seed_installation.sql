-- The single installation row; its admin_claimed flag makes the first account ever created the administrator.
INSERT INTO "installation" ("id", "admin_claimed") VALUES (1, false) ON CONFLICT DO NOTHING;
