export { parseActivityFile, ActivityFileError, ActivityFileTooLarge, type ActivityFileFormat, type ImportedActivity } from "./activity-file.ts";
export { activityTypeFromLabel } from "./activity-type.ts";
export type { Route, RoutePoint, Split } from "./route.ts";
