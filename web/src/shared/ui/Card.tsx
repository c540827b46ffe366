/** The one card: a box for one thing of a list, drawn by `.card`; a list of them is `.card-list`. */
import type { ReactNode } from "react";

export function Card({
  as: Tag = "div",
  className,
  children,
}: {
  as?: "div" | "li" | "article";
  className?: string;
  children: ReactNode;
}) {
  return <Tag className={className ? `card ${className}` : "card"}>{children}</Tag>;
}
