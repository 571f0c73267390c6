// fencesim's own FencedResourceCache (the reference core over the real MCP SDK) as a module client.
// `cacheModule()` wraps it in the module contract; pass `{ client: myReducer }` to run your own reducer.
import { cacheModule } from 'fencesim/module';

export default cacheModule();
