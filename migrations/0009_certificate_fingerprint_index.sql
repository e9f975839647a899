ALTER TABLE `certificates` ADD `fingerprint_front_left_mm` real;--> statement-breakpoint
CREATE INDEX `certificates_fingerprint_idx` ON `certificates` (`card_id`,`fingerprint_front_left_mm`) WHERE revoked_at IS NULL;--> statement-breakpoint
-- Certificates issued before this column existed: their front left border, from the stored fingerprint.
UPDATE `certificates` SET `fingerprint_front_left_mm` = json_extract(`fingerprint`, '$.front_borders_mm.left') WHERE `fingerprint` IS NOT NULL AND json_valid(`fingerprint`);
