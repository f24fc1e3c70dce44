import { describe, expect, it } from "vitest";
import { fillLegalText } from "./fill";

const NOTICE = `## Éditeur
Le site est édité par {{company_name}}, au capital de {{capital}}. Contact : {{email}}.

## Hébergement
Le site est hébergé par {{host_name}}, {{host_address}}.

## Propriété
Toute reproduction sans autorisation de {{company_name}} est interdite.

- Numéro : {{siret}}
- Toujours là`;

describe("a legal text with the company's details", () => {
  it("puts in every detail given", () => {
    const { body, missing } = fillLegalText(
      NOTICE,
      {
        company_name: "Parlons SAS",
        capital: "1 000 €",
        email: "bonjour@parlons.test",
        host_name: "OVH",
        host_address: "Roubaix",
        siret: "123",
      },
      "fr",
    );
    expect(body).toContain(
      "Le site est édité par Parlons SAS, au capital de 1 000 €. Contact : bonjour@parlons.test.",
    );
    expect(body).toContain("- Numéro : 123");
    expect(body).not.toMatch(/\{\{|\[/);
    expect(missing).toEqual([]);
  });

  it("leaves out the sentences whose detail is not given, never a blank, and names what is missing", () => {
    const { body, missing } = fillLegalText(
      NOTICE,
      { company_name: "Parlons SAS", email: "a@b.test", siret: " " },
      "fr",
    );
    expect(body).not.toMatch(/\{\{|\[|undefined/);
    // the sentence about the capital goes, the contact sentence on the same line stays
    expect(body).toContain("## Éditeur\nContact : a@b.test.");
    // the hosting section has nothing left: its heading goes too
    expect(body).not.toContain("Hébergement");
    expect(body).toContain("Toute reproduction sans autorisation de Parlons SAS est interdite.");
    expect(body).not.toContain("Numéro");
    expect(body).toContain("- Toujours là");
    expect(missing.sort()).toEqual(["capital", "host_address", "host_name", "siret"]);
  });
});
