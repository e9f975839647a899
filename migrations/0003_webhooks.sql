CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY NOT NULL,
	`delivery_id` text NOT NULL,
	`attempt` integer NOT NULL,
	`started_at` text NOT NULL,
	`status` integer,
	`latency_ms` integer NOT NULL,
	`error` text,
	FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_idx` ON `webhook_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`client_id` integer,
	`user_id` integer,
	`target_id` integer,
	`grading_id` text NOT NULL,
	`event` text NOT NULL,
	`url` text NOT NULL,
	`payload` text NOT NULL,
	`status` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`last_status` integer,
	`last_error` text,
	`next_attempt_at` text,
	`enqueued_at` text,
	`created_at` text NOT NULL,
	`delivered_at` text,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_created_idx` ON `webhook_deliveries` (`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_created_idx` ON `webhook_deliveries` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_client_created_idx` ON `webhook_deliveries` (`client_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_user_created_idx` ON `webhook_deliveries` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_grading_idx` ON `webhook_deliveries` (`grading_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_outbox_idx` ON `webhook_deliveries` (`enqueued_at`,`created_at`);--> statement-breakpoint
ALTER TABLE `api_clients` ADD `webhook_secret_previous_encrypted` text;--> statement-breakpoint
ALTER TABLE `api_clients` ADD `webhook_secret_rotated_at` text;