/**
 * The ag-grid modules the table screen uses, registered once — instead of AllCommunityModule, so
 * that the table screen's chunk carries only these (tools/size-budget.ts keeps it in check).
 * Column sorting, resizing, moving and pinning are part of ag-grid's core. Adding a grid feature
 * to the table screen may need its module here: ag-grid names the missing module in the browser
 * console (error #200) when an option or API call needs one, and every journey fails on a console
 * error (tests/browser/support.ts).
 */
import {
  CellStyleModule,
  ColumnApiModule,
  CustomFilterModule,
  DateFilterModule,
  GridStateModule,
  InfiniteRowModelModule,
  LocaleModule,
  ModuleRegistry,
  NumberFilterModule,
  RowApiModule,
  RowStyleModule,
  TextFilterModule,
  TooltipModule,
} from 'ag-grid-community';

ModuleRegistry.registerModules([
  InfiniteRowModelModule, // rowModelType="infinite": blocks fetched from the server
  TextFilterModule, // agTextColumnFilter
  NumberFilterModule, // agNumberColumnFilter
  DateFilterModule, // agDateColumnFilter
  CustomFilterModule, // the choice-list filter (ChoiceFilter.tsx)
  TooltipModule, // cell and header tooltips
  CellStyleModule, // cellClassRules: highlighted cells
  RowStyleModule, // rowClass: clickable rows
  RowApiModule, // redrawRows: the row a click selects is marked at once (tables with toolbar actions)
  GridStateModule, // initialState / onStateUpdated: the remembered layout
  ColumnApiModule, // getColumnState / applyColumnState / resetColumnState (saved views, reset)
  LocaleModule, // localeText: Polish grid texts
]);
