// The HTTP operations of history imports run as background jobs (imports).
import { IdParams } from "../common.ts";
import { IMPORT_FILE_LIMIT, ImportList, ImportQuery, ImportSummary, ImportText } from "../imports.ts";
import { define, type Operation } from "./operation.ts";

export const importsOperations = {
  startImport: define({
    id: "startImport", method: "POST", path: "/api/imports", service: "imports", tag: "Imports", scope: "imports:write",
    summary: "Import a weigh-in export, a food diary (CSV), an Apple Health export (export.zip or its export.xml), a Strava bulk export or a Garmin Connect export",
    description: "The file as the raw body, streamed (up to 2 GiB), or a small one as JSON `text`. A streamed upload has no " +
      "overall deadline but must not stall: 60 s without a byte cuts it with 408 and nothing is kept. Answers 202 with the " +
      "import at once; it is read in the background (GET /api/imports/{id} follows it). Weigh-ins: Withings, Fitbit, Renpho, " +
      "Libra and Happy Scale layouts are recognised by their header; weights in kg or lb (the header's unit, else `unit`), " +
      "times without a zone in `tz` (default UTC), a date without a time at local noon. Food diaries: MyFitnessPal's " +
      "nutrition export becomes one item per meal per day (it holds only the meal's totals), Cronometer's servings one item " +
      "per food with its amount, its daily summary one item per day; the diary's dates are its days. Apple Health's " +
      "`export.zip`, or the `export.xml` inside it, gives weigh-ins (kg, lb) with the body fat recorded at their instant, waist measurements and workouts (source " +
      "`phone_health`; from export.zip with the route its `workout-routes/*.gpx` holds), each time at its own offset; a document type declaring entities is refused. A zip archive is checked " +
      "before anything in it is inflated and refused (400, naming why) if it has more than 100 000 entries, a name that is " +
      "absolute or climbs out with `..`, a symbolic link, no `export.xml` (`apple_health_export/export.xml` or one folder " +
      "deep), `activities.csv` or Garmin's `DI_CONNECT/` but a zip inside it, entries declaring more than 4 GiB uncompressed together, or one compressing more than " +
      "200:1; an entry that inflates past the size its header declares fails the import (`failed`, nothing kept). Strava's " +
      "bulk export (a zip holding `activities.csv` and `activities/*.gpx|.tcx|.fit`, each may be `.gz`) gives one workout per " +
      "activity (source `activity_app`; one per leg of a multisport FIT file), its name, description and type from the CSV, " +
      "its figures from the recording, the CSV's where the recording has none. Garmin Connect's export (a zip holding " +
      "`DI_CONNECT/DI-Connect-Uploaded-Files/*.zip` and `DI_CONNECT/DI-Connect-Wellness/*_userBioMetrics.json`) gives one " +
      "workout per recording of its zips of uploaded files, Part1, Part2, … read in turn (source `watch_device`; one per leg of a multisport FIT " +
      "file) and one weigh-in per weight (grams, GMT); those are the only zips inside a zip read: once inflated, each " +
      "one's directory is checked with the same caps, counted with the export's and the parts' before it against 4 GiB, " +
      "and a zip inside it fails the import (for Part1 before any row is written; for a later part keeping the rows " +
      "of the parts before, which undo removes). Each reading, " +
      "diary entry or workout is stored once: the same file imported again creates nothing and counts its rows as skipped.",
    query: ImportQuery, body: ImportText, response: ImportSummary, status: 202, errors: [400, 413, 415],
    upload: {
      limitBytes: IMPORT_FILE_LIMIT, mediaTypes: ["text/csv", "text/plain", "application/xml", "text/xml", "application/zip", "application/octet-stream"], streamed: true,
    },
  }),
  listImports: define({
    id: "listImports", method: "GET", path: "/api/imports", service: "imports", tag: "Imports", scope: "imports:read",
    summary: "List imports", description: "The caller's imports, newest first (the latest 100).", response: ImportList, errors: [],
  }),
  getImport: define({
    id: "getImport", method: "GET", path: "/api/imports/:id", service: "imports", tag: "Imports", scope: "imports:read",
    summary: "Follow an import", description: "Its state, counts per kind, the first refused rows with their reasons, and progress.",
    params: IdParams, response: ImportSummary, errors: [400, 404],
  }),
  deleteImport: define({
    id: "deleteImport", method: "DELETE", path: "/api/imports/:id", service: "imports", tag: "Imports", scope: "imports:write",
    summary: "Cancel or undo an import",
    description: "A queued or reading import is cancelled; a finished (or cancelled) one is undone in the background " +
      "(`undoing`, then `undone`: follow it with GET): exactly the rows it created are removed, rows it skipped as already " +
      "stored stay. Answers the import as it now is; asking again while it is undoing changes nothing.",
    params: IdParams, response: ImportSummary, errors: [400, 404],
  }),
} satisfies Record<string, Operation>;
