import type { BadgeIcon } from "../../../../contract/game.ts";

/**
 * The app's own line pictures for badges, the leaderboard and the Inbox Zero celebration, drawn
 * on a 24-unit grid in the text colour. They replace emoji, which show as empty boxes where no
 * colour-emoji font is installed (Debian's Chromium, many Linux desktops).
 */
const PATHS: Record<BadgeIcon | UiPictogram, string> = {
  envelope: "M3 6h18v12H3zM3 7l9 6 9-6",
  inbox: "M3 13l3-8h12l3 8v6H3zM3 13h5l1 3h6l1-3h5",
  folders: "M3 9h6l2 2h10v9H3zM6 9V6h5l2 2h7v3",
  pillars: "M3 21h18M4 18h16M6 18v-8M10 18v-8M14 18v-8M18 18v-8M3 10h18L12 4z",
  target:
    "M12 3a9 9 0 1 0 0 18 9 9 0 1 0 0-18zM12 7a5 5 0 1 0 0 10 5 5 0 1 0 0-10zM12 11a1 1 0 1 0 0 2 1 1 0 1 0 0-2z",
  shield: "M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6zM9 12l2 2 4-4",
  sunrise: "M3 18h18M6 18a6 6 0 0 1 12 0M12 8V4M5.6 11.6 4.2 10.2M18.4 11.6l1.4-1.4M8 21h8",
  star: "M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3l-5.6 2.9 1.1-6.2L3 9.6l6.2-.9z",
  flame:
    "M12 21c-3.9 0-7-2.7-7-6.5 0-3 1.8-5 3.5-6.5.2 2 1.1 3 2.4 3.5C11 8 12 5.2 14 3c.6 3 5 5.6 5 11.5 0 3.8-3.1 6.5-7 6.5z",
  calendar: "M4 6h16v14H4zM4 10h16M8 3v4M16 3v4M8 14h3v3H8z",
  mountain: "M3 20 9 9l4 6 3-4 5 9zM14 6h4M16 4v4",
  bolt: "M13 2 4 14h7l-1 8 9-12h-7z",
  broom: "M20 3l-8 8M10 9l5 5-3 7c-3.5-.5-7-3.5-8-7zM7 13l2 3M10 17l1 2",
  trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13M10 11v6M14 11v6",
  mute: "M4 9h4l5-4v14l-5-4H4zM16 9l5 6M21 9l-5 6",
  bot: "M5 9h14v10H5zM12 4v5M12 4h.01M9 13v2M15 13v2M9 17h6M2 13v3M22 13v3",
  sparkles: "M12 3l1.8 5.2L19 10l-5.2 1.8L12 17l-1.8-5.2L5 10l5.2-1.8zM19 3v4M17 5h4M5 17v4M3 19h4",
  rocket:
    "M14 4c3-1.3 5.2-1.3 6-.5.8.8.8 3-.5 6l-6.5 6.5-5-5zM8 11l-3.5.5L3 14l4 1M13 16l-.5 3.5L10 21l-1-4M15.5 8.5h.01",
  sprout: "M12 21v-9M12 12C12 8 9 6 5 6c0 4 3 6 7 6zM12 14c0-4 3-7 7-7 0 4-3 7-7 7z",
  crown: "M3 8l4.5 4L12 5l4.5 7L21 8l-2 10H5zM5 21h14",
  medal:
    "M7 3l3 7M17 3l-3 7M12 10a5.5 5.5 0 1 0 0 11 5.5 5.5 0 1 0 0-11zM12 13.5a2 2 0 1 0 0 4 2 2 0 1 0 0-4z",
  trophy:
    "M8 4h8v5a4 4 0 0 1-8 0zM8 6H5v1a3 3 0 0 0 3 3M16 6h3v1a3 3 0 0 1-3 3M12 13v4M9 21h6M10 17h4l1 4H9z",
  party: "M4 20l4.5-11 6.5 6.5zM13 7l1-3M17 10l3-1M15 3.5l.01.01M20 14l.01.01M18 6l1-1M9 5l.01.01",
  "check-circle": "M12 3a9 9 0 1 0 0 18 9 9 0 1 0 0-18zM8 12l3 3 5-6",
};

/** Pictures the screens use besides the badges'. */
export type UiPictogram = "medal" | "trophy" | "party" | "check-circle";
export type PictogramName = BadgeIcon | UiPictogram;

/**
 * One picture. Decorative by default (hidden from screen readers, the text beside it says what it
 * is); with `label` it is an image with that name.
 */
export function Pictogram({
  name,
  className = "h-6 w-6",
  label,
}: {
  name: PictogramName;
  className?: string;
  label?: string;
}) {
  const drawing = {
    viewBox: "0 0 24 24",
    className,
    fill: "none",
    stroke: "currentColor",
    strokeWidth: 1.8,
    strokeLinecap: "round",
    strokeLinejoin: "round",
    "data-pictogram": name,
  } as const;
  if (label)
    return (
      <svg {...drawing} role="img" aria-label={label}>
        <title>{label}</title>
        <path d={PATHS[name]} />
      </svg>
    );
  return (
    <svg {...drawing} aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
