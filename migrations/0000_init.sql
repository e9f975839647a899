CREATE TABLE `catalog_cards` (
	`id` integer PRIMARY KEY NOT NULL,
	`category_id` integer NOT NULL,
	`brand` text NOT NULL,
	`year` text NOT NULL,
	`set_name` text NOT NULL,
	`card_number` text NOT NULL,
	`variant` text,
	`player_name` text NOT NULL,
	`team_name` text,
	`svc_value` integer NOT NULL,
	`external_ids` text,
	`reference_image_key` text,
	`reference_hash` text,
	FOREIGN KEY (`category_id`) REFERENCES `catalog_categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `catalog_cards_category_idx` ON `catalog_cards` (`category_id`);--> statement-breakpoint
CREATE TABLE `catalog_categories` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `dashboard_accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer,
	`role` text NOT NULL,
	`email` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `dashboard_accounts_email_idx` ON `dashboard_accounts` (`email`);--> statement-breakpoint
CREATE TABLE `grade_runs` (
	`id` integer PRIMARY KEY NOT NULL,
	`grading_session_id` text NOT NULL,
	`user_card_id` integer NOT NULL,
	`centering_overall_grade` real,
	`corners_overall_grade` real,
	`edges_overall_grade` real,
	`surface_overall_grade` real,
	`full_overall_grade` real,
	`model_grade` text,
	`slab_front_key` text,
	`slab_back_key` text,
	`damage_report_front_key` text,
	`damage_report_back_key` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`grading_session_id`) REFERENCES `grading_sessions`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_card_id`) REFERENCES `user_cards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `grade_runs_session_idx` ON `grade_runs` (`grading_session_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `grade_runs_user_card_idx` ON `grade_runs` (`user_card_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `grading_sessions` (
	`seq` integer PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`user_id` integer NOT NULL,
	`user_card_id` integer NOT NULL,
	`unique_identifier` integer NOT NULL,
	`outcome` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`user_card_id`) REFERENCES `user_cards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `grading_sessions_id_idx` ON `grading_sessions` (`id`);--> statement-breakpoint
CREATE INDEX `grading_sessions_user_created_idx` ON `grading_sessions` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `grading_sessions_user_card_idx` ON `grading_sessions` (`user_card_id`);--> statement-breakpoint
CREATE TABLE `partner_api_keys` (
	`id` integer PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`start` text NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` text NOT NULL,
	`revoked_at` text,
	`last_used_at` text,
	FOREIGN KEY (`account_id`) REFERENCES `dashboard_accounts`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_api_keys_hash_idx` ON `partner_api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `user_cards` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`card_id` integer NOT NULL,
	`grade` text,
	`grade_value` real GENERATED ALWAYS AS (CAST(grade AS REAL)) VIRTUAL,
	`grader` text,
	`share_slug` text NOT NULL,
	`front_image_key` text,
	`back_image_key` text,
	`added_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`card_id`) REFERENCES `catalog_cards`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `user_cards_user_added_idx` ON `user_cards` (`user_id`,`added_at`);--> statement-breakpoint
CREATE INDEX `user_cards_user_grade_idx` ON `user_cards` (`user_id`,`grade_value`);--> statement-breakpoint
CREATE UNIQUE INDEX `user_cards_share_slug_idx` ON `user_cards` (`share_slug`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `webhook_targets` (
	`id` integer PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`outcome` text NOT NULL,
	`url` text NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `webhook_targets_user_idx` ON `webhook_targets` (`user_id`,`outcome`);