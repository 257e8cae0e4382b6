import type { HTMLAttributes, Ref } from "react";

/**
 * A region that scrolls (a wide table on a phone, a long code block): focusable, so a keyboard can scroll to
 * what is off screen, and named for screen readers by `label` or by the element `labelledBy` names.
 */
export function ScrollRegion({
  label,
  labelledBy,
  ref,
  className = "overflow-x-auto",
  ...props
}: HTMLAttributes<HTMLDivElement> & { label?: string; labelledBy?: string; ref?: Ref<HTMLDivElement> }) {
  return <div ref={ref} role="region" aria-label={label} aria-labelledby={labelledBy} tabIndex={0} className={className} {...props} />;
}
