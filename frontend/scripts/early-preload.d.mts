// Types of early-preload.mjs for vite.config.ts (tsconfig includes it; the script is plain JS).
import type { Plugin } from 'vite';

export const EARLY_ENTRY: string;
export function earlyPreload(): Plugin;
