// MET values (gross) from the 2011 Compendium of Physical Activities: Ainsworth BE, Haskell WL, Herrmann SD,
// et al. "2011 Compendium of Physical Activities: a second update of codes and MET values." Med Sci Sports
// Exerc 2011;43(8):1575-81. Compendium codes in the comments. Running and walking rows are the Compendium's
// speeds (label = that speed in km/h), cycling and swimming rows its speed ranges.
import type { z } from "zod";
import type { ActivityType } from "@fit/contracts";

type Activity = z.infer<typeof ActivityType>;

interface SpeedBand {
  /** The band holds speeds below this many km/h and at or above the previous band's bound. */
  belowKmh: number;
  met: number;
  label: string;
}

interface ActivityMet {
  met: number;
  /** Band ends when the Compendium has them; a missing end is ±20 % of `met`. */
  low?: number;
  high?: number;
}

export const SPEED_BANDS: Partial<Record<Activity, readonly SpeedBand[]>> = {
  run: [
    { belowKmh: 7.2, met: 6.0, label: "6kmh" }, // 12029 4 mph
    { belowKmh: 8.85, met: 8.3, label: "8kmh" }, // 12030 5 mph
    { belowKmh: 10.5, met: 9.8, label: "10kmh" }, // 12050 6 mph
    { belowKmh: 11.9, met: 11.0, label: "11kmh" }, // 12070 7 mph
    { belowKmh: 13.5, met: 11.8, label: "13kmh" }, // 12080, 12090 7.5-8 mph
    { belowKmh: 15.3, met: 12.8, label: "14kmh" }, // 12110 9 mph
    { belowKmh: 16.9, met: 14.5, label: "16kmh" }, // 12120 10 mph
    { belowKmh: 18.5, met: 16.0, label: "18kmh" }, // 12130 11 mph
    { belowKmh: 20.1, met: 19.0, label: "19kmh" }, // 12132 12 mph
    { belowKmh: 21.7, met: 19.8, label: "21kmh" }, // 12134 13 mph
    { belowKmh: Infinity, met: 23.0, label: "23kmh" }, // 12135 14 mph
  ],
  walk: [
    { belowKmh: 2.8, met: 2.0, label: "2kmh" }, // 17151 < 2 mph
    { belowKmh: 3.6, met: 2.8, label: "3kmh" }, // 17152 2 mph
    { belowKmh: 4.4, met: 3.0, label: "4kmh" }, // 17170 2.5 mph
    { belowKmh: 5.2, met: 3.5, label: "5kmh" }, // 17190 2.8-3.2 mph
    { belowKmh: 6.0, met: 4.3, label: "5.6kmh" }, // 17200 3.5 mph
    { belowKmh: 6.8, met: 5.0, label: "6.4kmh" }, // 17220 4 mph
    { belowKmh: 7.6, met: 7.0, label: "7kmh" }, // 17230 4.5 mph
    { belowKmh: Infinity, met: 8.3, label: "8kmh" }, // 17231 5 mph
  ],
  ride: [
    { belowKmh: 16.1, met: 4.0, label: "lt16kmh" }, // 01010 < 10 mph
    { belowKmh: 19.3, met: 6.8, label: "16-19kmh" }, // 01020 10-11.9 mph
    { belowKmh: 22.5, met: 8.0, label: "19-23kmh" }, // 01030 12-13.9 mph
    { belowKmh: 25.7, met: 10.0, label: "23-26kmh" }, // 01040 14-15.9 mph
    { belowKmh: 32.2, met: 12.0, label: "26-32kmh" }, // 01050 16-19 mph
    { belowKmh: Infinity, met: 15.8, label: "gt32kmh" }, // 01060 > 20 mph
  ],
  swim: [
    { belowKmh: 2.2, met: 5.8, label: "slow" }, // 18240 freestyle, slow
    { belowKmh: 3.4, met: 8.3, label: "2.7kmh" }, // 18290 crawl ~50 yd/min
    { belowKmh: Infinity, met: 10.0, label: "4.1kmh" }, // 18280 crawl ~75 yd/min
  ],
};

export const ACTIVITY_METS: Record<Activity, ActivityMet> = {
  run: { met: 8.0 }, // 12150 running
  ride: { met: 7.5 }, // 01015 bicycling, general
  swim: { met: 5.8, high: 9.8 }, // 18240 freestyle slow; 18230 fast
  walk: { met: 3.5 }, // 17190 moderate pace
  hike: { met: 6.0, low: 5.3 }, // 17080 cross country; 17082 normal pace
  strength_training: { met: 5.0, low: 3.5, high: 6.0 }, // 02052 squats; 02054 multiple exercises; 02050 vigorous
  yoga: { met: 2.5, low: 2.0, high: 4.0 }, // 02150 Hatha; 02170 Nadisodhana; 02160 Power
  rowing: { met: 4.8, high: 7.0 }, // 02071 general moderate; 02072 100 W
  elliptical: { met: 5.0 }, // 02048 moderate
  crossfit: { met: 8.0, low: 4.3 }, // 02040 circuit incl. kettlebells, vigorous; 02035 circuit moderate
  other: { met: 5.5, low: 3.8, high: 7.8 }, // 02060 health club general; 02064 home exercise; 02062 conditioning class
};
