import { toast } from "../../components/ui/toast-store.ts";

/**
 * Puts text on the clipboard and says so with the spec's 'Copied' toast. Falls back to a hidden
 * textarea and execCommand where the async clipboard is refused (older browsers, no permission).
 */
export async function copyText(text: string): Promise<void> {
  let ok = false;
  try {
    await navigator.clipboard.writeText(text);
    ok = true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    try {
      ok = document.execCommand("copy");
    } finally {
      area.remove();
    }
  }
  if (ok) toast({ title: "Copied", description: "Copied to the clipboard" });
  else
    toast({
      title: "Copy failed",
      description: "Select the text and copy it by hand.",
      variant: "destructive",
    });
}
