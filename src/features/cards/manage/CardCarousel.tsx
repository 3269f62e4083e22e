/**
 * The cards side by side, one in view at a time: swiped with a finger (CSS scroll snap), or moved with
 * the Previous and Next buttons (keyboard and screen readers), which say which card is shown. Tabbing
 * into a card's controls brings that card into view. Opens on `initialSlide` without animation. At
 * either end its button is aria-disabled, not disabled: a disabled button loses the keyboard's focus
 * (to the page's start) just as it reaches the last card.
 */
import { Trans, useLingui } from '@lingui/react/macro';
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { scrollToSlide, slideInView } from './carouselScroll.ts';

export function CardCarousel({ initialSlide, slides }: { initialSlide: number; slides: { key: string; content: ReactNode }[] }) {
  const { t } = useLingui();
  const list = useRef<HTMLUListElement>(null);
  const count = slides.length;
  const [chosen, setChosen] = useState(initialSlide);
  const current = Math.max(0, Math.min(chosen, count - 1));
  const opening = useRef(current);
  useLayoutEffect(() => scrollToSlide(list.current, opening.current, false), []);

  const go = (index: number) => {
    setChosen(index);
    scrollToSlide(list.current, index, true);
  };
  const position = current + 1;

  return (
    <div className="card-carousel">
      {count > 1 ? (
        <div className="card-carousel-controls">
          <button
            type="button"
            className="carousel-button"
            aria-label={t`Previous card`}
            aria-disabled={current === 0}
            onClick={() => current > 0 && go(current - 1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <p className="carousel-position" aria-live="polite">
            <Trans>
              Card {position} of {count}
            </Trans>
          </p>
          <button
            type="button"
            className="carousel-button"
            aria-label={t`Next card`}
            aria-disabled={current === count - 1}
            onClick={() => current < count - 1 && go(current + 1)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      ) : null}
      <ul
        ref={list}
        className="card-slides"
        aria-label={t`Your cards`}
        onScroll={(event) => {
          const inView = slideInView(event.currentTarget);
          if (inView !== current) setChosen(inView);
        }}
      >
        {slides.map((slide, index) => (
          <li key={slide.key} className="card-slide" aria-current={index === current ? 'true' : undefined}>
            {slide.content}
          </li>
        ))}
      </ul>
    </div>
  );
}
