ALTER TABLE `api_clients` ADD `webhook_secrets_retired` text;--> statement-breakpoint
ALTER TABLE `submissions` ADD `billing` text DEFAULT 'billed' NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `images_deleted_at` text;--> statement-breakpoint
CREATE INDEX `submissions_idempotency_created_idx` ON `submissions` (`created_at`) WHERE idempotency_key IS NOT NULL;--> statement-breakpoint
CREATE INDEX `submissions_client_window_billing_idx` ON `submissions` (`client_id`,`quota_window_start`,`billing`);--> statement-breakpoint
CREATE INDEX `submissions_retention_idx` ON `submissions` (`status`,`images_deleted_at`,`created_at`);--> statement-breakpoint
-- Hand-written backfill (not generated). Rejections so far all had their quota unit given back; a
-- client's one previous signing secret becomes the one retired secret, valid 24 h from its rotation.
UPDATE `submissions` SET `billing` = 'refunded' WHERE `status` = 'rejected';--> statement-breakpoint
UPDATE `api_clients` SET `webhook_secrets_retired` = json_array(json_object(
  'secret', `webhook_secret_previous_encrypted`,
  'valid_until', strftime('%Y-%m-%dT%H:%M:%fZ', `webhook_secret_rotated_at`, '+1 day')
)) WHERE `webhook_secret_previous_encrypted` IS NOT NULL AND `webhook_secret_rotated_at` IS NOT NULL;
