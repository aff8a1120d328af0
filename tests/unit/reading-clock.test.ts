import { expect, it } from "vitest";
import { ReadingClock } from "~/browser/reading-clock";
import { READING_IDLE_MS } from "~/modules/deck-reading/reading-rules";

const s = (seconds: number) => seconds * 1000;

/** A reader on screen in a visible tab, showing page 1 at 0. */
function openClock() {
  const clock = new ReadingClock();
  clock.visible(true, 0);
  clock.onScreen(true, 0);
  clock.show(1, 0);
  return clock;
}

it("counts each page's time while it is shown, to the millisecond", () => {
  const clock = openClock();
  clock.input(s(2));
  clock.show(2, s(8));
  clock.show(3, s(23));
  expect(clock.take(s(27))).toEqual([
    [1, 0, s(8)],
    [2, s(8), s(23)],
    [3, s(23), s(27)],
  ]);
  expect(clock.take(s(28))).toEqual([[3, s(27), s(28)]]);
});

it("stops at the idle cut-off exactly, however late it is asked, and runs again on input", () => {
  const clock = openClock();
  expect(clock.take(s(120))).toEqual([[1, 0, READING_IDLE_MS]]);
  expect(clock.running(s(120))).toBe(false);
  expect(clock.take(s(150))).toEqual([]);
  clock.input(s(150));
  expect(clock.take(s(155))).toEqual([[1, s(150), s(155)]]);
});

it("gives a page the visitor turns to its own first 30 seconds, and none to the strip settling by itself", () => {
  const clock = openClock();
  clock.input(s(25));
  clock.show(2, s(25));
  expect(clock.take(s(100))).toEqual([
    [1, 0, s(25)],
    [2, s(25), s(25) + READING_IDLE_MS],
  ]);
});

it("stands while the tab is hidden or the reader is off screen", () => {
  const clock = openClock();
  clock.visible(false, s(5));
  clock.visible(true, s(35));
  clock.onScreen(false, s(40));
  clock.input(s(45));
  clock.onScreen(true, s(50));
  expect(clock.take(s(52))).toEqual([
    [1, 0, s(5)],
    [1, s(35), s(40)],
    [1, s(50), s(52)],
  ]);
});

it("counts nothing before a page is shown", () => {
  const clock = new ReadingClock();
  clock.visible(true, 0);
  clock.onScreen(true, 0);
  expect(clock.running(s(1))).toBe(false);
  expect(clock.take(s(3))).toEqual([]);
});

it("counts a page the strip settles on by itself only within the visitor's last input's allowance", () => {
  const clock = openClock();
  clock.input(s(10));
  clock.show(2, s(10));
  clock.show(3, s(20));
  clock.show(2, s(21));
  expect(clock.take(s(100))).toEqual([
    [1, 0, s(10)],
    [2, s(10), s(20)],
    [3, s(20), s(21)],
    [2, s(21), s(40)],
  ]);
});

