// Types of nav-catalogue.mjs for vite.config.ts (tsconfig includes it; the script is plain JS).
import type { Plugin } from 'vite';

export function navCatalogues(dir?: string): { catalogues: Record<string, Record<string, unknown>>; files: string[] };
export function navCatalogue(): Plugin;
