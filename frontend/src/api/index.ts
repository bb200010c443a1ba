export * from './client';
export * from './errors';
export * from './types';
export type * from './schema';
