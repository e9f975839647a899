CREATE TABLE `api_clients` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`user_id` integer,
	`hourly_quota` integer DEFAULT 120 NOT NULL,
	`webhook_url` text,
	`webhook_secret_encrypted` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY NOT NULL,
	`client_id` integer NOT NULL,
	`key_id` text NOT NULL,
	`key_hash` text NOT NULL,
	`start` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	`last_used_at` text,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_key_id_idx` ON `api_keys` (`key_id`);--> statement-breakpoint
CREATE TABLE `certificates` (
	`number` text PRIMARY KEY NOT NULL,
	`grading_id` text NOT NULL,
	`client_id` integer,
	`issued_at` text NOT NULL,
	`revoked_at` text,
	`overall` real NOT NULL,
	`centering` real NOT NULL,
	`corners` real NOT NULL,
	`edges` real NOT NULL,
	`surface` real NOT NULL,
	`centering_horizontal` real NOT NULL,
	`centering_vertical` real NOT NULL,
	`model_version` text NOT NULL,
	`graded_at` text NOT NULL,
	`player` text,
	`year` text,
	`brand` text,
	`set_name` text,
	`card_number` text,
	`variant` text,
	`category` text,
	`value_currency` text DEFAULT 'USD' NOT NULL,
	`value_low` real,
	`value_mid` real,
	`value_high` real,
	`value_confidence` text NOT NULL,
	`front_image_key` text NOT NULL,
	`back_image_key` text NOT NULL,
	`pipeline_engine` text NOT NULL,
	`pipeline_graded_by` text NOT NULL,
	`pipeline_hosted_by` text NOT NULL,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `certificates_grading_idx` ON `certificates` (`grading_id`);