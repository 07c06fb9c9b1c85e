import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Button } from './button.tsx';
import { Checkbox } from './checkbox.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from './dialog.tsx';
import { Label } from './label.tsx';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from './select.tsx';
import { Switch } from './switch.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from './table.tsx';
import { Tooltip, TooltipContent, TooltipProvider, TooltipTrigger } from './tooltip.tsx';

describe('design system', () => {
  it('a busy button shows a spinner, is disabled and says so', async () => {
    const onClick = vi.fn();
    const { rerender } = render(<Button onClick={onClick}>Valider</Button>);
    await userEvent.click(screen.getByRole('button', { name: 'Valider' }));
    expect(onClick).toHaveBeenCalledTimes(1);
    rerender(
      <Button onClick={onClick} busy>
        Valider
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Valider' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(button.querySelector('svg.animate-spin')).not.toBeNull();
    expect(button).toHaveAttribute('type', 'button');
  });

  it('checkbox and switch toggle with their labels', async () => {
    function Form() {
      const [checked, setChecked] = useState(false);
      return (
        <>
          <Checkbox id="c" checked={checked} onCheckedChange={(v) => setChecked(v === true)} />
          <Label htmlFor="c">Notification Erreur</Label>
          <Switch id="s" />
          <Label htmlFor="s">Lecture seule</Label>
        </>
      );
    }
    render(<Form />);
    const checkbox = screen.getByRole('checkbox', { name: 'Notification Erreur' });
    expect(checkbox).not.toBeChecked();
    await userEvent.click(screen.getByText('Notification Erreur'));
    expect(checkbox).toBeChecked();
    const toggle = screen.getByRole('switch', { name: 'Lecture seule' });
    await userEvent.click(toggle);
    expect(toggle).toBeChecked();
  });

  it('select picks an option', async () => {
    const onValueChange = vi.fn();
    render(
      <>
        <Label htmlFor="provider">Provider</Label>
        <Select onValueChange={onValueChange}>
          <SelectTrigger id="provider">
            <SelectValue placeholder="Choisir" />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="CLOUD">CLOUD POUR VERSION SAAS</SelectItem>
            <SelectItem value="MSDASQL">ODBC 32/64 bits</SelectItem>
          </SelectContent>
        </Select>
      </>,
    );
    await userEvent.click(screen.getByRole('combobox', { name: 'Provider' }));
    await userEvent.click(await screen.findByRole('option', { name: 'ODBC 32/64 bits' }));
    expect(onValueChange).toHaveBeenCalledWith('MSDASQL');
    expect(screen.getByRole('combobox', { name: 'Provider' })).toHaveTextContent('ODBC 32/64 bits');
  });

  it('dialog opens with its title and closes with Escape or its close button', async () => {
    render(
      <Dialog>
        <DialogTrigger asChild>
          <Button>Voir le log</Button>
        </DialogTrigger>
        <DialogContent>
          <DialogTitle>Log de synchronisation</DialogTitle>
          <DialogDescription>Aucun log disponible</DialogDescription>
        </DialogContent>
      </Dialog>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Voir le log' }));
    expect(await screen.findByRole('dialog', { name: 'Log de synchronisation' })).toHaveAccessibleDescription(
      'Aucun log disponible',
    );
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('button', { name: 'Voir le log' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Fermer' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('tooltip shows its text on keyboard focus', async () => {
    render(
      <TooltipProvider>
        <Tooltip>
          <TooltipTrigger asChild>
            <button type="button">Aide</button>
          </TooltipTrigger>
          <TooltipContent>Texte d'aide</TooltipContent>
        </Tooltip>
      </TooltipProvider>,
    );
    await userEvent.tab();
    expect(await screen.findByRole('tooltip')).toHaveTextContent("Texte d'aide");
  });

  it('table headers are column headers', () => {
    render(
      <Table>
        <TableHeader>
          <TableRow>
            <TableHead>Jours de synchronisation</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          <TableRow>
            <TableCell>Tous les jours</TableCell>
          </TableRow>
        </TableBody>
      </Table>,
    );
    expect(screen.getByRole('columnheader', { name: 'Jours de synchronisation' })).toHaveAttribute(
      'scope',
      'col',
    );
    expect(screen.getByRole('cell', { name: 'Tous les jours' })).toBeInTheDocument();
  });
});
