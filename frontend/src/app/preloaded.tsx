import { lazy, useState, type ComponentType } from 'react';

/**
 * React.lazy for a component whose code is often downloaded before it first renders (the app
 * shell and the dashboard are preloaded at start-up: src/early.ts, router.tsx). React.lazy
 * suspends on its first render even then, and each time a Suspense boundary shows its
 * fallback React holds the content back for a moment (about 300 ms) before revealing it: on a
 * signed-in first screen that was the shell's and then the page's. Once `preload` has
 * resolved, the component renders at once, without suspending; before, it is React.lazy.
 */
export function preloaded<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  let loaded: ComponentType<P> | undefined;
  let pending: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () => {
    pending ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        pending = undefined; // a failed download is tried again on the next render
        throw err;
      },
    );
    return pending;
  };
  const Lazy = lazy(preload);
  function Preloaded(props: P) {
    // Chosen once per mounted instance: switching from Lazy to the loaded component later
    // would remount the page and lose its state.
    const [Component] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Component {...props} />;
  }
  return { Component: Preloaded, preload };
}
