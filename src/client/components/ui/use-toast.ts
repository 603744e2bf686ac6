import { type ReactNode, useSyncExternalStore } from 'react';

// A small store in the shadcn style: one toast at a time (docs/product-rules.md, Browser timings).
const TOAST_LIMIT = 1;
/** A dismissed toast stays in the store this long (ms) so its exit animation can finish. */
const TOAST_REMOVE_DELAY = 1_000_000;

type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Overrides the provider's default of 5000 ms. */
  duration?: number;
}

interface ToasterToast extends ToastOptions {
  id: string;
  open: boolean;
}

interface ToastState {
  toasts: ToasterToast[];
}

let memoryState: ToastState = { toasts: [] };
const listeners = new Set<() => void>();
const removeTimeouts = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function setState(next: ToastState): void {
  memoryState = next;
  listeners.forEach((listener) => listener());
}

function scheduleRemoval(id: string): void {
  if (removeTimeouts.has(id)) return;
  const timeout = setTimeout(() => {
    removeTimeouts.delete(id);
    setState({ toasts: memoryState.toasts.filter((t) => t.id !== id) });
  }, TOAST_REMOVE_DELAY);
  removeTimeouts.set(id, timeout);
}

/** Closes one toast, or all of them when no id is given. */
export function dismissToast(id?: string): void {
  memoryState.toasts.forEach((t) => {
    if (id === undefined || t.id === id) scheduleRemoval(t.id);
  });
  setState({
    toasts: memoryState.toasts.map((t) => (id === undefined || t.id === id ? { ...t, open: false } : t)),
  });
}

/** Shows a toast; with TOAST_LIMIT = 1 it replaces the one on screen. */
export function toast(options: ToastOptions): void {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const next: ToasterToast = { ...options, id: String(counter), open: true };
  setState({ toasts: [next, ...memoryState.toasts].slice(0, TOAST_LIMIT) });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const getSnapshot = (): ToastState => memoryState;

/** The toasts on screen, for the Toaster; raise one with toast(). */
export function useToast() {
  const state = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { toasts: state.toasts };
}
