import { useEffect, useState } from "react";

/**
 * The value a controlled input shows while its change is being saved. The stored value (query
 * data, updated optimistically by the mutation) reaches React a task after the click, and until
 * then React puts a controlled checkbox or radio back to the stored value: the input visibly snaps
 * back, and a test that checks the state right after its click fails. The click's value is held
 * here from the click on, and let go once the save has settled (`saving` back to false), when the
 * stored value is the saved one, or the old one again if the server refused.
 */
export function useChosenValue<T>(stored: T, saving: boolean): [T, (value: T) => void] {
  const [chosen, setChosen] = useState<{ value: T } | null>(null);
  useEffect(() => {
    if (!saving) setChosen(null);
  }, [saving]);
  return [chosen ? chosen.value : stored, (value) => setChosen({ value })];
}
