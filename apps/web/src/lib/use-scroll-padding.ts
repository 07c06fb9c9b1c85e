import { useEffect } from 'react';

/**
 * While the calling screen is mounted, the page keeps `size` of scroll padding on `side`: a field
 * reached with Tab then never hides under a sticky bar (the save bar, a sticky table head).
 */
export function useScrollPadding(side: 'top' | 'bottom', size: string): void {
  useEffect(() => {
    const style = document.documentElement.style;
    const property = side === 'top' ? 'scrollPaddingTop' : 'scrollPaddingBottom';
    const previous = style[property];
    style[property] = size;
    return () => {
      style[property] = previous;
    };
  }, [side, size]);
}
