// Local-only check (never run in CI): where VASL puts an overlay's top-left corner, by VASL's own board grid
// (VASL.build.module.map.boardPicker.board.ASLHexGrid), set up as ASLBoard.initializeFromArchive sets it up (X0/Y0
// the A1 centre cut to whole pixels, DX/DY the hex width and height, "alternate" the alternate hex grain), less the
// origin hex's point as Overlay.setBounds takes it: getLocation(hex 1) - getLocation(origin).
// stdin, one placement a line (tab-separated, as `scripts/compare_vasl_overlays.py placements` writes its first
// seven columns): A1CenterX A1CenterY hexWidth hexHeight alternate hex1 origin; stdout: x TAB y.
// Nothing of VASL or VASSAL is committed: this calls their classes, built locally (ASLHexGrid.getLocation is the
// same in the 2020 fork's classes ../tools/realvasl/build.sh makes and in VASL 6.7.x).
//
//   CP=$RV/vasl/classes:$RV/Vengine-3.7.26.jar      (or any VASSAL jar with VASL's ASLHexGrid compiled against it)
//   javac -cp "$CP" -d build/placeovl scripts/realvasl/PlaceOverlays.java
//   cut -f1-7 place.tsv | java -Djava.awt.headless=true -cp "$CP:build/placeovl" PlaceOverlays > vasl-place.tsv
import VASL.build.module.map.boardPicker.board.ASLHexGrid;
import VASSAL.build.module.map.boardPicker.board.HexGrid;

import java.awt.Point;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

public class PlaceOverlays {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split("\t");
            if (f.length < 7) {
                continue;
            }
            ASLHexGrid grid = new ASLHexGrid(64.5, false);
            grid.setAttribute(HexGrid.X0, (int) Double.parseDouble(f[0]));
            grid.setAttribute(HexGrid.Y0, (int) Double.parseDouble(f[1]));
            grid.setAttribute(HexGrid.DX, Double.parseDouble(f[2]));
            grid.setAttribute(HexGrid.DY, Double.parseDouble(f[3]));
            grid.setAttribute("alternate", f[4]);
            Point hex1 = grid.getLocation(f[5]);
            Point origin = grid.getLocation(f[6]);
            System.out.println((hex1.x - origin.x) + "\t" + (hex1.y - origin.y));
        }
    }
}
