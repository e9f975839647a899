CREATE TABLE `attestation_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`public_jwk` text NOT NULL,
	`private_jwk_encrypted` text,
	`status` text NOT NULL,
	`created_at` text NOT NULL,
	`retired_at` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `attestation_keys_current_idx` ON `attestation_keys` (`status`) WHERE status = 'current';--> statement-breakpoint
ALTER TABLE `certificates` ADD `card_id` integer REFERENCES catalog_cards(id);--> statement-breakpoint
ALTER TABLE `certificates` ADD `front_image_sha256` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `back_image_sha256` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `attestation` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `attestation_kid` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `fingerprint` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `previous_certificates` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
CREATE INDEX `certificates_card_grade_idx` ON `certificates` (`card_id`,`revoked_at`,`overall`);--> statement-breakpoint
CREATE INDEX `certificates_client_issued_idx` ON `certificates` (`client_id`,`issued_at`);