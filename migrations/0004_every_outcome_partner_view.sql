ALTER TABLE `catalog_cards` ADD `verified` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `catalog_cards` ADD `source` text DEFAULT 'catalog' NOT NULL;--> statement-breakpoint
ALTER TABLE `certificates` ADD `value_basis` text;--> statement-breakpoint
ALTER TABLE `certificates` ADD `card_source` text DEFAULT 'catalog' NOT NULL;--> statement-breakpoint
ALTER TABLE `submissions` ADD `settled_by` text;--> statement-breakpoint
CREATE INDEX `user_cards_card_idx` ON `user_cards` (`card_id`);--> statement-breakpoint
-- Hand-written (to the end of the file). Linked clients' settled submissions without a grading
-- session get one from `npm run admin -- backfill` (POST /admin/v1/backfill), which reuses the
-- settlement's writer and sends no notifications.
-- What the certificates issued before this migration say about their card and value.
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
-- Values already present came from a catalog match.
UPDATE `certificates` SET `value_basis` = 'catalog_match' WHERE `value_mid` IS NOT NULL;--> statement-breakpoint
-- Certificates issued without a value get the catalog-wide estimate new settlements use
-- (src/grading/engine/value.ts): the catalog's median raw value (low/high: its quartiles, taken
-- here as the nearest row rather than interpolated) times the grade multiple of GRADE_CURVE in
-- src/grading/engine/identify.ts, confidence "none". An empty catalog values them at 0.
UPDATE `certificates` SET
  `value_basis` = 'catalog_wide',
  `value_confidence` = 'none',
  `value_low` = round(coalesce((SELECT `svc_value` FROM `catalog_cards` WHERE `verified` ORDER BY `svc_value` LIMIT 1
      OFFSET (SELECT (count(*) - 1) / 4 FROM `catalog_cards` WHERE `verified`)), 0) / 100.0 * (CASE
    WHEN `overall` >= 9.5 THEN 3.5 + (`overall` - 9.5) / 0.5 * 2.5
    WHEN `overall` >= 9 THEN 2.2 + (`overall` - 9) / 0.5 * 1.3
    WHEN `overall` >= 8.5 THEN 1.6 + (`overall` - 8.5) / 0.5 * 0.6
    WHEN `overall` >= 8 THEN 1.35 + (`overall` - 8) / 0.5 * 0.25
    WHEN `overall` >= 7 THEN 1.15 + (`overall` - 7) * 0.2
    WHEN `overall` >= 6 THEN 1 + (`overall` - 6) * 0.15
    WHEN `overall` >= 5 THEN 0.9 + (`overall` - 5) * 0.1
    WHEN `overall` >= 1 THEN 0.6 + (`overall` - 1) / 4 * 0.3
    ELSE 0.6 END), 2),
  `value_mid` = round(coalesce((SELECT `svc_value` FROM `catalog_cards` WHERE `verified` ORDER BY `svc_value` LIMIT 1
      OFFSET (SELECT (count(*) - 1) / 2 FROM `catalog_cards` WHERE `verified`)), 0) / 100.0 * (CASE
    WHEN `overall` >= 9.5 THEN 3.5 + (`overall` - 9.5) / 0.5 * 2.5
    WHEN `overall` >= 9 THEN 2.2 + (`overall` - 9) / 0.5 * 1.3
    WHEN `overall` >= 8.5 THEN 1.6 + (`overall` - 8.5) / 0.5 * 0.6
    WHEN `overall` >= 8 THEN 1.35 + (`overall` - 8) / 0.5 * 0.25
    WHEN `overall` >= 7 THEN 1.15 + (`overall` - 7) * 0.2
    WHEN `overall` >= 6 THEN 1 + (`overall` - 6) * 0.15
    WHEN `overall` >= 5 THEN 0.9 + (`overall` - 5) * 0.1
    WHEN `overall` >= 1 THEN 0.6 + (`overall` - 1) / 4 * 0.3
    ELSE 0.6 END), 2),
  `value_high` = round(coalesce((SELECT `svc_value` FROM `catalog_cards` WHERE `verified` ORDER BY `svc_value` LIMIT 1
      OFFSET (SELECT (3 * count(*) - 1) / 4 FROM `catalog_cards` WHERE `verified`)), 0) / 100.0 * (CASE
    WHEN `overall` >= 9.5 THEN 3.5 + (`overall` - 9.5) / 0.5 * 2.5
    WHEN `overall` >= 9 THEN 2.2 + (`overall` - 9) / 0.5 * 1.3
    WHEN `overall` >= 8.5 THEN 1.6 + (`overall` - 8.5) / 0.5 * 0.6
    WHEN `overall` >= 8 THEN 1.35 + (`overall` - 8) / 0.5 * 0.25
    WHEN `overall` >= 7 THEN 1.15 + (`overall` - 7) * 0.2
    WHEN `overall` >= 6 THEN 1 + (`overall` - 6) * 0.15
    WHEN `overall` >= 5 THEN 0.9 + (`overall` - 5) * 0.1
    WHEN `overall` >= 1 THEN 0.6 + (`overall` - 1) / 4 * 0.3
    ELSE 0.6 END), 2)
WHERE `value_mid` IS NULL OR `value_low` IS NULL OR `value_high` IS NULL;
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
