// Types of boot-screen.mjs for vite.config.ts (tsconfig includes it; the script is plain JS).
import type { Plugin } from 'vite';

export function bootScreen(): Plugin;
