/**
 * The Live badge's dot pings three times when the badge appears (its CSS) and three times again for each new item
 * (this), then rests as a still dot: a ping that never stops kept every phone holding the page redrawing sixty times
 * a second for as long as it stayed open (decision 76).
 */
export function replayLivePing(root: ParentNode | null): void {
  const ping = root?.querySelector<HTMLElement>("[data-live-ping]");
  if (!ping) return;
  ping.style.animationName = "none";
  // Reading layout applies the cleared name, so restoring it starts the animation from its first ping.
  void ping.offsetWidth;
  ping.style.animationName = "";
}
