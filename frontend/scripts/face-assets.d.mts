// Types of face-assets.mjs for vite.config.ts (tsconfig includes it; the script is plain JS).
import type { Plugin } from 'vite';

export const FACE_MODELS: string[];
export const FACE_WASM: string[];
export function faceAssetFiles(): Map<string, string>;
export function faceAssets(): Plugin;
