"use client";

import { useEffect, useRef, type ReactNode, type RefObject } from "react";

/**
 * A modal dialog, open while mounted: Escape and the buttons that call `close` end it, except while `busy`
 * (closing then would hide how the action ended).
 */
export function Modal({
  labelledBy,
  describedBy,
  busy = false,
  onClosed,
  dialogRef,
  children,
}: {
  labelledBy: string;
  describedBy?: string;
  busy?: boolean;
  onClosed: () => void;
  dialogRef?: RefObject<HTMLDialogElement | null>;
  children: ReactNode;
}) {
  const own = useRef<HTMLDialogElement>(null);
  const dialog = dialogRef ?? own;
  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, [dialog]);
  return (
    <dialog
      ref={dialog}
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      onCancel={(event) => busy && event.preventDefault()}
      onClose={onClosed}
      className="m-auto w-[min(34rem,calc(100vw-2rem))] rounded-lg bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/50 dark:backdrop:bg-slate-50/70"
    >
      {children}
    </dialog>
  );
}
