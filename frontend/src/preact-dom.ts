// `react-dom` for the staff app's build (vite.config.ts): Preact's compatibility layer, with one
// difference. Preact renders a portal's content as a separate root, so a component inside a
// portal that suspends (a Mantine modal whose form asks for a catalogue not yet downloaded, a
// lazily loaded dialog) reaches no Suspense boundary and is never shown; under React it reached
// the page's. Here every portal's content has a boundary of its own: it shows once its code and
// texts are there.
import compat, { createElement, Suspense, type ReactNode } from 'preact/compat';

// The boundary sits in an element of its own (display: contents, so it takes no part in the
// layout): Preact's Suspense moves a suspended subtree out of and back into its parent, and a
// portal's parent is a stand-in that cannot append.
const boundaryStyle = { display: 'contents' };

export function createPortal(children: ReactNode, container: Element | DocumentFragment) {
  return compat.createPortal(createElement('div', { style: boundaryStyle }, createElement(Suspense, { fallback: null }, children)), container);
}

// What the libraries import from react-dom by name (Mantine, TanStack Query, react-router,
// react-remove-scroll): the rest of Preact's layer as it is.
export const { findDOMNode, flushSync, unstable_batchedUpdates, render, hydrate, unmountComponentAtNode, version } = compat;

export default { ...compat, createPortal };
