// goap@1.1.1 ships no types; the benchmark only needs its two classes.
declare module "goap" {
  const goap: { Agent: unknown; Action: unknown };
  export default goap;
}
