ALTER TABLE `catalog_cards` ADD `verified` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `catalog_cards` ADD `source` text DEFAULT 'catalog' NOT NULL;--> statement-breakpoint
ALTER TABLE `certificates` ADD `value_basis` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `card_source` text DEFAULT 'catalog' NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `settled_by` text;--> statement-breakpoint
-- Hand-written: what the certificates issued before this migration say about their card and value.
-- A certificate whose card fields all match a catalog card was identified; one with no card field
-- had neither identification nor hints; the rest carry the submitter's declared hints.
UPDATE `certificates` SET `card_source` = CASE
  WHEN `player` IS NULL AND `year` IS NULL AND `brand` IS NULL AND `set_name` IS NULL AND `card_number` IS NULL THEN 'none'
  WHEN EXISTS (
    SELECT 1 FROM `catalog_cards` c
    WHERE c.`player_name` = `certificates`.`player` AND c.`year` = `certificates`.`year`
      AND c.`brand` = `certificates`.`brand` AND c.`set_name` = `certificates`.`set_name`
      AND c.`card_number` = `certificates`.`card_number`
  ) THEN 'catalog'
  ELSE 'hints'
END;--> statement-breakpoint
-- Values already present came from a catalog match; rows without numbers are valued, and linked
-- clients' settled submissions without a session get one, by `npm run admin -- backfill`
-- (POST /admin/v1/backfill), which reuses the settlement's own code and sends no notifications.
UPDATE `certificates` SET `value_basis` = 'catalog_match' WHERE `value_mid` IS NOT NULL;
--> statement-breakpoint
-- Hand-written: the grading session of a public submission is written in the batch that settles it
-- (src/grading/partner-view.ts), with updated_at = that settlement's settled_at. A session for a
-- submission that this batch did not settle (it was settled earlier, or is still processing) aborts
-- the batch, so a late re-drive cannot add a second outcome to a grading settled long ago; the
-- unique index on grading_sessions.id stops two settlements of the same millisecond.
CREATE TRIGGER `grading_sessions_settled_submission` BEFORE INSERT ON `grading_sessions`
WHEN EXISTS (SELECT 1 FROM `submissions` WHERE `grading_id` = NEW.`id`)
  AND NOT EXISTS (
    SELECT 1 FROM `submissions`
    WHERE `grading_id` = NEW.`id` AND `status` <> 'processing' AND `settled_at` = NEW.`updated_at`
  )
BEGIN
  SELECT RAISE(ABORT, 'submission not claimed by this settlement');
END;
