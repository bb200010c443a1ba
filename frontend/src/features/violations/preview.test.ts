import { describe, expect, it } from 'vitest';
import { previewPoints, standingFor, standingToPoints, type Threshold } from './preview';
import type { StudentPoints } from './types';

const T: Threshold[] = [
  { level: 2, name: 'SP 2', min_points: 50, colour: 'orange' },
  { level: 1, name: 'SP 1', min_points: 25, colour: 'yellow' },
  { level: 3, name: 'SP 3', min_points: 100, colour: 'red' },
];

function points(total: number, over: Partial<StudentPoints> = {}): StudentPoints {
  const s = standingFor(total, T);
  return {
    student_id: 1,
    total,
    lifetime_total: total + 10,
    level: s.level,
    level_name: s.levelName,
    level_colour: s.levelColour,
    next_level: s.next?.level ?? null,
    next_level_name: s.next?.name ?? '',
    next_level_min_points: s.next?.min_points ?? null,
    points_to_next: s.pointsToNext,
    academic_year_start: '2026-07-01',
    ...over,
  };
}

describe('points preview', () => {
  it('a standing: the level reached and the points to the next', () => {
    expect(standingFor(0, T)).toMatchObject({ level: 0, next: { level: 1 }, pointsToNext: 25 });
    expect(standingFor(25, T)).toMatchObject({ level: 1, levelName: 'SP 1', next: { level: 2 }, pointsToNext: 25 });
    expect(standingFor(130, T)).toMatchObject({ level: 3, next: null, pointsToNext: null });
  });

  it('adds the chosen types and names no letter below the next level', () => {
    const p = previewPoints(points(10), [5, 5], T);
    expect(p.added).toBe(10);
    expect(p.after).toMatchObject({ total: 20, level: 0, pointsToNext: 5 });
    expect(p.newLevels).toEqual([]);
  });

  it('crossing a threshold names its letter; crossing two names both, never skipping one', () => {
    expect(previewPoints(points(20), [5], T).newLevels.map((t) => t.level)).toEqual([1]);
    expect(previewPoints(points(20), [30, 10], T).newLevels.map((t) => t.level)).toEqual([1, 2]);
    expect(previewPoints(points(30), [80], T).newLevels.map((t) => t.level)).toEqual([2, 3]);
  });

  it('nothing chosen changes nothing', () => {
    const p = previewPoints(points(40), [], T);
    expect(p.after.total).toBe(40);
    expect(p.newLevels).toEqual([]);
  });

  it('without the thresholds it uses what the server said about the next level', () => {
    const p = previewPoints(points(20), [10], undefined);
    expect(p.after.total).toBe(30);
    expect(p.newLevels.map((t) => t.level)).toEqual([1]);
    const q = previewPoints(points(20), [2], []);
    expect(q.after).toMatchObject({ total: 22, level: 0, pointsToNext: 3 });
  });
});

describe('the preview in the server shape', () => {
  it('moves the totals and names the level and the next one', () => {
    const base = points(40);
    const p = previewPoints(base, [15], T);
    expect(standingToPoints(p.after, base)).toMatchObject({
      total: 55,
      lifetime_total: 65,
      level: 2,
      level_name: 'SP 2',
      level_colour: 'orange',
      next_level: 3,
      next_level_min_points: 100,
      points_to_next: 45,
    });
  });
});
