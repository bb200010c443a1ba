import type { StudentPoints } from './types';

/** A warning-letter level as GET /sp-thresholds lists it (only what the preview needs). */
export interface Threshold {
  level: number;
  name: string;
  min_points: number;
  colour: string;
}

/** Where a student stands: their points and the level those points reach. */
export interface Standing {
  total: number;
  /** 0: no level reached. */
  level: number;
  levelName: string;
  levelColour: string;
  /** The next level, null past the last. */
  next: Threshold | null;
  pointsToNext: number | null;
}

function sorted(thresholds: readonly Threshold[]): Threshold[] {
  return [...thresholds].sort((a, b) => a.min_points - b.min_points || a.level - b.level);
}

/** The standing a total gives against the thresholds. */
export function standingFor(total: number, thresholds: readonly Threshold[]): Standing {
  let reached: Threshold | null = null;
  let next: Threshold | null = null;
  for (const t of sorted(thresholds)) {
    if (total >= t.min_points) reached = t;
    else if (!next) next = t;
  }
  return {
    total,
    level: reached?.level ?? 0,
    levelName: reached?.name ?? '',
    levelColour: reached?.colour ?? '',
    next,
    pointsToNext: next ? next.min_points - total : null,
  };
}

/** The standing the server reported (used when the thresholds cannot be read). */
export function standingFromPoints(p: StudentPoints): Standing {
  const next =
    p.next_level !== null && p.next_level_min_points !== null
      ? { level: p.next_level, name: p.next_level_name, min_points: p.next_level_min_points, colour: '' }
      : null;
  return { total: p.total, level: p.level, levelName: p.level_name, levelColour: p.level_colour, next, pointsToNext: p.points_to_next };
}

export interface PointsPreview {
  now: Standing;
  after: Standing;
  /** The points this entry adds. */
  added: number;
  /** The levels this entry crosses, lowest first: each gets a letter. */
  newLevels: Threshold[];
}

/**
 * What recording the chosen types does to the student's standing: from their current total
 * (the academic year's, as the server counts it) plus the chosen types' points. The levels
 * crossed are those above the level already reached, up to the one the new total reaches:
 * the server issues a letter for each (never skipping one).
 */
export function previewPoints(points: StudentPoints, typePoints: readonly number[], thresholds: readonly Threshold[] | undefined): PointsPreview {
  const added = typePoints.reduce((s, p) => s + p, 0);
  const total = points.total + added;
  if (!thresholds || thresholds.length === 0) {
    const now = standingFromPoints(points);
    const crosses = now.next && now.pointsToNext !== null && added >= now.pointsToNext;
    const after: Standing = crosses
      ? { total, level: now.next!.level, levelName: now.next!.name, levelColour: '', next: null, pointsToNext: null }
      : { ...now, total, pointsToNext: now.pointsToNext === null ? null : now.pointsToNext - added };
    return { now, after, added, newLevels: crosses ? [now.next!] : [] };
  }
  const now = standingFor(points.total, thresholds);
  const after = standingFor(total, thresholds);
  const newLevels = sorted(thresholds).filter((t) => t.level > now.level && t.level <= after.level);
  return { now, after, added, newLevels };
}

/** A standing in the server's shape (what the warning-letters progress bar draws), lifetime moved by the same points. */
export function standingToPoints(s: Standing, base: StudentPoints): StudentPoints {
  return {
    ...base,
    total: s.total,
    lifetime_total: base.lifetime_total + (s.total - base.total),
    level: s.level,
    level_name: s.levelName,
    level_colour: s.levelColour,
    next_level: s.next?.level ?? null,
    next_level_name: s.next?.name ?? '',
    next_level_min_points: s.next?.min_points ?? null,
    points_to_next: s.pointsToNext,
  };
}
