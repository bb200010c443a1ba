import { browserPlatform } from './browser';
import { desktopPlatform } from './desktop';
import type { Platform } from './types';

export type { NotifyPermission, Platform } from './types';

/** Wails injects window.go (bindings) and window.runtime into its web view. */
export function isDesktop(w: object | undefined = typeof window === 'undefined' ? undefined : window): boolean {
  return !!w && ('go' in w || 'runtime' in w);
}

/** The platform this build runs on. Screens import only from here. */
export const platform: Platform = isDesktop() ? desktopPlatform : browserPlatform;

export const saveFile: Platform['saveFile'] = (source, name) => platform.saveFile(source, name);
export const pickFile: Platform['pickFile'] = (accept) => platform.pickFile(accept);
export const notify: Platform['notify'] = (title, body, onClick, tag) => platform.notify(title, body, onClick, tag);
export const notifyPermission: Platform['notifyPermission'] = () => platform.notifyPermission();
export const requestNotifyPermission: Platform['requestNotifyPermission'] = () => platform.requestNotifyPermission();
