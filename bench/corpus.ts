/**
 * Deterministic text for the data set: every run of the generator at a given scale produces
 * the same rows, so figures from two runs compare like with like.
 */

/** The word searched for in the ticket-search scenario; found in exactly 1% of message bodies. */
export const PROBE_WORD = "reembolso";

/** Contact-search term: a surname, so it matches roughly 1/SURNAMES.length of the contacts. */
export const CONTACT_TERM = "silva";

// biome-ignore format: a table reads better than one word a line
export const FIRST_NAMES = [
  "Ana", "Bruno", "Carla", "Daniel", "Eduarda", "Felipe", "Gabriela", "Hugo", "Isabela", "João",
  "Karina", "Lucas", "Mariana", "Nicolas", "Olivia", "Pedro", "Quésia", "Rafael", "Sofia", "Tiago",
  "Ursula", "Vitor", "Wesley", "Yasmin",
];

// biome-ignore format: a table reads better than one word a line
export const SURNAMES = [
  "Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Alves", "Pereira", "Lima", "Gomes",
  "Costa", "Ribeiro", "Martins", "Carvalho", "Almeida", "Lopes", "Soares", "Fernandes", "Vieira", "Barbosa",
  "Rocha", "Dias", "Nascimento", "Andrade", "Moreira",
];

// Support-chat vocabulary. None of these contains the probe word, so its 1% is exact.
const WORDS = (
  "olá bom dia boa tarde noite obrigado obrigada por favor pedido número entrega atrasou chegou " +
  "produto veio quebrado troca devolução pagamento boleto cartão pix nota fiscal prazo frete " +
  "endereço cadastro senha acesso aplicativo site erro tela conta cobrança valor desconto cupom " +
  "promoção estoque disponível tamanho cor modelo garantia assistência técnica agendamento visita " +
  "horário atendimento protocolo aguardo retorno ainda não recebi quando vai chegar consegue verificar " +
  "claro vou verificar um momento aqui está tudo certo resolvido mais alguma dúvida posso ajudar " +
  "transportadora rastreio código enviado ontem hoje amanhã semana semana passada loja física online " +
  "gostaria saber sobre preciso de ajuda com meu minha seu sua o a os as de da do em no na para com " +
  "sem que é foi está estou pode podem vocês eu ele ela nós confirmar cancelar alterar atualizar"
).split(" ");

/** Mulberry32: a tiny seeded PRNG, enough for reproducible test text. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Corpus {
  /** A long run of vocabulary words separated by spaces. */
  text: string;
  /** 1-based offsets (for SQL substr) where a word starts and at least 200 characters follow. */
  starts: number[];
}

/** Message bodies are slices of this text starting on a word: cheap to cut in SQL, varied enough for trigram search. */
export function buildCorpus(length = 200_000, seed = 42): Corpus {
  const random = prng(seed);
  const words: string[] = [];
  let size = 0;
  while (size < length) {
    const word = WORDS[Math.floor(random() * WORDS.length)];
    words.push(word);
    size += word.length + 1;
  }
  const text = words.join(" ");
  const starts: number[] = [];
  let offset = 0;
  for (const word of words) {
    if (offset + 200 < text.length) starts.push(offset + 1);
    offset += word.length + 1;
  }
  return { text, starts };
}

/** A body of 20–200 characters for the ingest scenario (same corpus as the data set). */
export function bodyPicker(corpus: Corpus, seed: number): () => string {
  const random = prng(seed);
  return () => {
    const start = corpus.starts[Math.floor(random() * corpus.starts.length)] - 1;
    const length = 20 + Math.floor(random() * 181);
    return corpus.text
      .slice(start, start + length)
      .trimEnd()
      .padEnd(20, ".");
  };
}

/** Slices of 200 characters starting on a word: the generator cuts each message body from one of them. */
export function phrases(corpus: Corpus, count: number, seed = 7): string[] {
  const random = prng(seed);
  return Array.from({ length: count }, () => {
    const start = corpus.starts[Math.floor(random() * corpus.starts.length)] - 1;
    return corpus.text.slice(start, start + 200);
  });
}
