/**
 * Saving an order as the order wizard does (POST /api/order/add: the order and 10 positions in one
 * transaction) and opening its details (GET /api/order/details/{id}), as a fleet manager, on the
 * bench data. The SQL beside them is what the server ran for the call — the reads of the caller's
 * scope, the inserts and updates — replayed in one transaction (BEGIN … COMMIT, as the server
 * writes) on a direct connection.
 */
import type { Api } from './http.ts';
import type { Measurement } from './measure.ts';

const POSITIONS = 10;
const WRITE_TARGET = { p95Ms: 100, maxRatio: 2 };
const DETAILS_TARGET = { p95Ms: 50, maxRatio: 2 };
/** The statements of an order write or its details (the scope reads go through v_… views). */
const ORDER_SQL = /\bfrom "v_[a-z_]+"|^insert into "(service_order|order_position|order_transition)"|^update "service_order"|\bfrom "(order_position|order_transition|order_status|car|service_order)"/;

interface Car { pojazdId: number; rejestr: string }

export async function orderWriteMeasurements(api: Api, manager: string): Promise<Measurement[]> {
  const cars = await api.post<{ rows: Car[] }>('/car/table2', { startRow: 0, endRow: 1, sortModel: [], filterModel: {} }, manager);
  const car = cars.rows[0];
  if (!car) throw new Error('the manager sees no vehicle to order for');
  const body = {
    order: {
      autTyp: 0, zgloInterw: 'PRZEGLAD', pojazdId: car.pojazdId, rejestr: car.rejestr, zgloNazwiskoImie: 'Kowalski Jan',
      zgloEmail: 'jan.kowalski@example.pl', zgloZakres: 'Przegląd okresowy', stanLicz: 10,
    },
    rangePositions: Array.from({ length: POSITIONS }, (_, i) => ({ uslRodzaj: (i % 6) + 1, tresc: `Pozycja ${i + 1}`, ilosc: 1 + i, cena: 99.99, rabatProc: 5 })),
  };
  let lastId = 0;
  const section = 'Orders: saving and details, MANAGER (one client)';
  return [
    {
      section, name: `save an order with ${POSITIONS} positions (POST /order/add)`, target: WRITE_TARGET, capture: ORDER_SQL, transactional: true,
      call: async () => {
        const answer = await api.post<{ order: { autId: number } }>('/order/add', body, manager);
        lastId = answer.order.autId;
        return answer;
      },
      check: (answer: { order?: { autId?: number } }) => {
        if (!answer.order?.autId) throw new Error('the save answered no order id');
      },
      whenMissed: 'A save commits once and waits for the write-ahead log to reach the disk (synchronous_commit stays on for business data, unlike the nonce insert); on a shared machine that flush dominates, and the SQL beside it commits the same way.',
    },
    {
      section, name: 'order details (GET /order/details/{id})', target: DETAILS_TARGET, capture: ORDER_SQL,
      call: () => api.get(`/order/details/${lastId}`, manager),
      check: (answer: { positions?: unknown[] }) => {
        if (answer.positions?.length !== POSITIONS) throw new Error(`expected ${POSITIONS} positions in the details`);
      },
    },
  ];
}
