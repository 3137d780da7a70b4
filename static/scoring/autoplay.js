// Auto-play of the replay (回放自动播放, issue 27): a step every `BASE_MS / speed` until the end
// or a pause. No DOM here, so that node tests it with fake timers (tests/js/replay_autoplay.test.js).

export const BASE_MS = 1200;
export const SPEEDS = [0.5, 1, 2, 4];

// `advance()` shows the next step; `atEnd()` says whether the last one is shown; `rewind()` goes
// back to the start (play pressed at the end plays again); `onChange(playing)` updates the button.
export function createAutoplay({
  advance,
  atEnd,
  rewind = () => {},
  onChange = () => {},
  setTimer = (fn, ms) => setTimeout(fn, ms),
  clearTimer = (id) => clearTimeout(id),
}) {
  let playing = false;
  let speed = 1;
  let timer = null;

  const schedule = () => {
    if (timer !== null) clearTimer(timer);
    timer = setTimer(tick, BASE_MS / speed);
  };

  function tick() {
    timer = null;
    if (!playing) return;
    advance();
    if (atEnd()) pause();
    else schedule();
  }

  function play() {
    if (playing) return;
    if (atEnd()) rewind();
    playing = true;
    onChange(true);
    schedule();
  }

  function pause() {
    if (timer !== null) clearTimer(timer);
    timer = null;
    if (!playing) return;
    playing = false;
    onChange(false);
  }

  return {
    play,
    pause,
    toggle: () => (playing ? pause() : play()),
    isPlaying: () => playing,
    speed: () => speed,
    setSpeed(value) {
      const wanted = Number(value);
      if (!SPEEDS.includes(wanted)) return;
      speed = wanted;
      if (playing) schedule(); // the new pace from now on
    },
  };
}
