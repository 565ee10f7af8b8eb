-- AlterTable
ALTER TABLE "import" ADD COLUMN     "declared" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "part" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "part_line" INTEGER NOT NULL DEFAULT 1;

-- Garmin imports stored before parts were read: their one inflated entry becomes their only part (the names of
-- the other parts carry no size to read them by), and the export's declared total is where their count starts.
UPDATE "import" SET
  "format" = ("format" - 'entry' - 'otherParts') || jsonb_build_object('parts',
    CASE WHEN jsonb_typeof("format"->'entry') = 'object' THEN jsonb_build_array("format"->'entry') ELSE '[]'::jsonb END),
  "declared" = COALESCE(("format"->>'declared')::bigint, 0)
WHERE "format"->>'layout' = 'garmin' AND "format" ? 'entry';
