import { useId, useState } from 'react';
import { Search, X } from 'lucide-react';
import { HISTORY_LIMITS } from '@synchro/contracts';
import { Button } from '../ui/button.tsx';
import { SearchInput } from '../ui/input.tsx';
import { FieldHint, Label } from '../ui/label.tsx';

export interface SearchBoxProps {
  label: string;
  placeholder: string;
  /** The search applied now ('' for none). */
  applied: string;
  /** Launches a search: on Enter or the 'Rechercher' button, never while typing. */
  onSearch: (text: string) => void;
}

/**
 * The search box of the history screens: typing changes nothing until Enter (or 'Rechercher')
 * launches the search (docs/spec-notes.md, Import history and transaction trace: « Search text
 * applies only on Enter »).
 */
export function SearchBox({ label, placeholder, applied, onSearch }: SearchBoxProps) {
  const id = useId();
  const [text, setText] = useState(applied);
  // A search applied from elsewhere (cleared) shows in the box.
  const [shownApplied, setShownApplied] = useState(applied);
  if (shownApplied !== applied) {
    setShownApplied(applied);
    setText(applied);
  }
  const pending = text.trim() !== applied;

  return (
    <div className="grid min-w-0 content-start gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex min-w-0 gap-2">
        <SearchInput
          wrapperClassName="min-w-0 flex-1"
          id={id}
          enterKeyHint="search"
          className="pr-9 [&::-webkit-search-cancel-button]:hidden"
          placeholder={placeholder}
          maxLength={HISTORY_LIMITS.searchMaxChars}
          value={text}
          aria-describedby={`${id}-hint`}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              onSearch(text.trim());
            }
          }}
        >
          {text ? (
            <button
              type="button"
              className="absolute top-1/2 right-1.5 grid size-7 -translate-y-1/2 place-content-center rounded-md text-muted-foreground hover:bg-muted hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
              onClick={() => {
                setText('');
                if (applied) onSearch('');
              }}
            >
              <X aria-hidden="true" className="size-4" />
              <span className="sr-only">Effacer la recherche</span>
            </button>
          ) : null}
        </SearchInput>
        <Button variant="outline" className="max-sm:px-3" onClick={() => onSearch(text.trim())}>
          <Search aria-hidden="true" className="sm:hidden" />
          <span className="max-sm:sr-only">Rechercher</span>
        </Button>
      </div>
      <FieldHint id={`${id}-hint`}>
        {pending ? 'Appuyez sur Entrée pour lancer la recherche.' : 'Entrée lance la recherche.'}
      </FieldHint>
    </div>
  );
}
