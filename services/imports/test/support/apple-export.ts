// Apple Health exports as Health writes them (export.xml's document type, its record and workout attributes,
// dates with their offsets), for the tests and the benchmark.

/** The start of a real export.xml: its declaration and document type (abridged), then the root and its first children. */
export const APPLE_HEAD = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE HealthData [
<!-- HealthKit Export Version: 11 -->
<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>
<!ATTLIST HealthData
  locale CDATA #REQUIRED
>
<!ELEMENT ExportDate EMPTY>
<!ATTLIST ExportDate
  value CDATA #REQUIRED
>
<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>
<!ATTLIST Record
  type          CDATA #REQUIRED
  unit          CDATA #IMPLIED
  value         CDATA #IMPLIED
  sourceName    CDATA #REQUIRED
  startDate     CDATA #REQUIRED
  endDate       CDATA #REQUIRED
>
<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>
]>
<HealthData locale="en_US">
 <ExportDate value="2026-11-01 09:00:00 +0100"/>
 <Me HKCharacteristicTypeIdentifierDateOfBirth="1985-05-01" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse="None"/>
`;
export const APPLE_TAIL = "</HealthData>\n";

/** `2024-03-01 07:12:09 +0100`: the instant `ms` on a clock `offsetMin` ahead of UTC. */
const appleDate = (ms: number, offsetMin = 0) => {
  const wall = new Date(ms + offsetMin * 60_000).toISOString().slice(0, 19).replace("T", " ");
  const sign = offsetMin < 0 ? "-" : "+";
  const abs = Math.abs(offsetMin);
  return `${wall} ${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
};

export const appleRecord = (type: string, unit: string, value: string | number, ms: number, offsetMin = 0, source = "Health") => {
  const date = appleDate(ms, offsetMin);
  return ` <Record type="HKQuantityTypeIdentifier${type}" sourceName="${source}" sourceVersion="17.1" unit="${unit}" creationDate="${date}" startDate="${date}" endDate="${date}" value="${value}"/>\n`;
};

/** A heart-rate record with its metadata child, as a watch writes them every few minutes: what an import skips. */
export const heartRate = (ms: number, bpm: number) => {
  const date = appleDate(ms, 60);
  return ` <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Apple Watch" sourceVersion="10.1" device="&lt;&lt;HKDevice: 0x2803d8a00&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;" unit="count/min" creationDate="${date}" startDate="${date}" endDate="${date}" value="${bpm}">\n  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="0"/>\n </Record>\n`;
};

export interface WorkoutSpec {
  type: string;
  startMs: number;
  minutes: number;
  offsetMin?: number;
  /** Old exports: totals as attributes; new ones: WorkoutStatistics children. */
  style?: "attributes" | "statistics";
  distance?: { value: number; unit: string };
  energy?: { value: number; unit: string };
  hr?: { avg: number; max: number };
  route?: string;
}

export const appleWorkout = (w: WorkoutSpec) => {
  const offset = w.offsetMin ?? 0;
  const start = appleDate(w.startMs, offset);
  const end = appleDate(w.startMs + w.minutes * 60_000, offset);
  const span = `startDate="${start}" endDate="${end}"`;
  const attributes = w.style === "attributes"
    ? `${w.distance ? ` totalDistance="${w.distance.value}" totalDistanceUnit="${w.distance.unit}"` : ""}${w.energy ? ` totalEnergyBurned="${w.energy.value}" totalEnergyBurnedUnit="${w.energy.unit}"` : ""}`
    : "";
  const children = [
    `  <MetadataEntry key="HKIndoorWorkout" value="0"/>`,
    `  <WorkoutEvent type="HKWorkoutEventTypeSegment" date="${start}" duration="${w.minutes}" durationUnit="min"/>`,
    ...(w.style === "attributes" ? [] : [
      w.energy && `  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" ${span} sum="${w.energy.value}" unit="${w.energy.unit}"/>`,
      w.distance && `  <WorkoutStatistics type="HKQuantityTypeIdentifierDistanceWalkingRunning" ${span} sum="${w.distance.value}" unit="${w.distance.unit}"/>`,
    ]),
    w.hr && `  <WorkoutStatistics type="HKQuantityTypeIdentifierHeartRate" ${span} average="${w.hr.avg}" minimum="90" maximum="${w.hr.max}" unit="count/min"/>`,
    w.route && `  <WorkoutRoute sourceName="Apple Watch" sourceVersion="10.1" creationDate="${end}" ${span}>\n   <FileReference path="/${w.route}"/>\n  </WorkoutRoute>`,
  ].filter(Boolean);
  return ` <Workout workoutActivityType="HKWorkoutActivityType${w.type}" duration="${w.minutes}" durationUnit="min"${attributes} sourceName="Apple Watch" sourceVersion="10.1" creationDate="${end}" ${span}>\n${children.join("\n")}\n </Workout>\n`;
};
