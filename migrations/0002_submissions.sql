CREATE TABLE `submissions` (
	`grading_id` text PRIMARY KEY NOT NULL,
	`client_id` integer NOT NULL,
	`api_key_id` integer NOT NULL,
	`quota_window_start` integer,
	`external_ref` text,
	`status` text NOT NULL,
	`reason` text,
	`message` text,
	`hints` text,
	`front_image_key` text NOT NULL,
	`back_image_key` text NOT NULL,
	`request_origin` text NOT NULL,
	`idempotency_key` text,
	`request_fingerprint` text,
	`answered_at` text,
	`engine` text,
	`attempts` integer DEFAULT 0 NOT NULL,
	`certificate_number` text,
	`created_at` text NOT NULL,
	`settled_at` text,
	FOREIGN KEY (`client_id`) REFERENCES `api_clients`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `submissions_client_idempotency_idx` ON `submissions` (`client_id`,`idempotency_key`);--> statement-breakpoint
CREATE INDEX `submissions_client_ref_idx` ON `submissions` (`client_id`,`external_ref`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_status_created_idx` ON `submissions` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `submissions_created_idx` ON `submissions` (`created_at`);--> statement-breakpoint
-- A certificate of a submission is written in the same batch that settles it (src/grading/settle.ts):
-- it may only go in when that batch's conditional update claimed the submission for this number, so
-- a settlement that lost a race (the submission was completed or rejected meanwhile) aborts whole.
CREATE TRIGGER `certificates_claimed_submission` BEFORE INSERT ON `certificates`
WHEN EXISTS (SELECT 1 FROM `submissions` WHERE `grading_id` = NEW.`grading_id`)
  AND NOT EXISTS (SELECT 1 FROM `submissions` WHERE `grading_id` = NEW.`grading_id` AND `certificate_number` = NEW.`number`)
BEGIN
  SELECT RAISE(ABORT, 'submission not claimed by this settlement');
END;
