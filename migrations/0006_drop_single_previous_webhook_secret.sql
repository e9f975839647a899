ALTER TABLE `api_clients` DROP COLUMN `webhook_secret_previous_encrypted`;--> statement-breakpoint
ALTER TABLE `api_clients` DROP COLUMN `webhook_secret_rotated_at`;