/** Scrolling the cards list (CardCarousel): which card is in view, and bringing one into view. */
const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Scrolls the list so that slide `index` is centred. */
export function scrollToSlide(list: HTMLElement | null, index: number, animate: boolean) {
  const slide = list?.children[index] as HTMLElement | undefined;
  if (!list || !slide) return;
  const left = slide.offsetLeft - (list.clientWidth - slide.offsetWidth) / 2;
  if (typeof list.scrollTo === 'function') list.scrollTo({ left, behavior: animate && !prefersReducedMotion() ? 'smooth' : 'auto' });
  else list.scrollLeft = left;
}

/** The slide whose centre is nearest the list's centre. */
export function slideInView(list: HTMLElement): number {
  const centre = list.scrollLeft + list.clientWidth / 2;
  let nearest = 0;
  let distance = Infinity;
  Array.from(list.children).forEach((child, index) => {
    const slide = child as HTMLElement;
    const away = Math.abs(slide.offsetLeft + slide.offsetWidth / 2 - centre);
    if (away < distance) {
      distance = away;
      nearest = index;
    }
  });
  return nearest;
}
