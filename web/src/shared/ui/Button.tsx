/**
 * The one button: the stylesheet draws every `<button>` alike; the variant says which of the few
 * kinds it is (primary for the page's main action, danger for what cannot be undone, link and
 * icon for quiet ones). An icon button has no text, so it must have a `label`.
 */
import type { ButtonHTMLAttributes, ReactNode } from "react";

export type ButtonVariant = "default" | "primary" | "danger" | "link" | "icon";

const CLASS: Record<ButtonVariant, string | undefined> = {
  default: undefined,
  primary: "primary",
  danger: "danger",
  link: "link-button",
  icon: "icon-button",
};

export function buttonClass(variant: ButtonVariant, extra?: string): string | undefined {
  const classes = [CLASS[variant], extra].filter(Boolean).join(" ");
  return classes || undefined;
}

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, "type" | "aria-label"> & {
  variant?: ButtonVariant;
  type?: "button" | "submit";
  label?: string;
  children: ReactNode;
};

export function Button({ variant = "default", type = "button", label, className, children, ...rest }: Props) {
  return (
    <button
      {...rest}
      type={type}
      aria-label={label}
      title={rest.title ?? (variant === "icon" ? label : undefined)}
      className={buttonClass(variant, className)}
    >
      {children}
    </button>
  );
}
